/**
 * The fixtures a server must carry to be judged by the suite: the names the official MCP
 * conformance suite expects, plus a few Patchbay ones for rules conformance cannot reach (listed
 * with their contract in the package README).
 */
export const FIXTURE_TOOLS = [
  "test_simple_text",
  "test_image_content",
  "test_audio_content",
  "test_embedded_resource",
  "test_multiple_content_types",
  "test_tool_with_logging",
  "test_tool_with_progress",
  "test_error_handling",
  "test_sampling",
  "test_elicitation",
  "add",
  "long_task",
  "log_at_every_level",
  "toggle_extra_tool",
  "update_watched_resource",
  "list_roots",
  "get_resource_link",
] as const;

/** Static resources the suite reads. */
export const FIXTURE_RESOURCES = [
  "test://static-text",
  "test://static-binary",
  "test://watched-resource",
] as const;

/** The resource template the suite reads and completes. */
export const FIXTURE_TEMPLATE = "test://template/{id}/data";

/** Prompts the suite gets. */
export const FIXTURE_PROMPTS = [
  "test_simple_prompt",
  "test_prompt_with_arguments",
  "test_prompt_with_embedded_resource",
  "test_prompt_with_image",
] as const;

/** The 1x1 PNG of the conformance fixtures. */
export const TEST_IMAGE_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** The minimal WAV of the conformance fixtures. */
export const TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
