export { createManualClock, type ManualClock } from "./manual-clock.js";
