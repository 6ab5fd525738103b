import { z } from "zod";
export const s = z.string();
