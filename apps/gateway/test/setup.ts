import { afterAll } from "vitest";
import { removeTemporaryDirectories } from "./gateway-helpers.js";

// A setup file runs for each test file, so each removes the temporary directories it made.
afterAll(removeTemporaryDirectories);
