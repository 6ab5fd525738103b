/**
 * `@patchbay/router/pins-file`: pins kept in a JSON file (Node only), for the apps: a `PinStore`
 * over a file written atomically, and the edits `pins approve` makes.
 */
export {
  approvePinFile,
  createFilePinStore,
  pinFileOf,
  readPinFile,
  writePinFile,
} from "./file-pin-store.js";
