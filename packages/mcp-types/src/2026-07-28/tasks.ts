/*
 * Revision 2026-07-28: tasks left the core protocol for the extension `io.modelcontextprotocol/tasks`
 * (polling `tasks/get`, new `tasks/update`, no `tasks/list`, no blocking `tasks/result`). Its
 * messages are not part of the core schema, so this package only names the extension.
 */

/** The extension id a modern peer lists under `capabilities.extensions` to support tasks. */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";
