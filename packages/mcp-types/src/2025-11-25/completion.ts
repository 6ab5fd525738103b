/* Revision 2025-11-25: unchanged from 2025-06-18. */
export {
  PromptReferenceSchema,
  ResourceTemplateReferenceSchema,
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  type PromptReference,
  type ResourceTemplateReference,
  type CompleteRequestParams,
  type CompleteRequest,
  CompleteResultSchema,
  type CompleteResult,
} from "../2025-06-18/completion.js";
