/* Revision 2025-11-25: unchanged from 2025-06-18. */
export {
  type CompleteRequest,
  type CompleteRequestParams,
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  type CompleteResult,
  CompleteResultSchema,
  type PromptReference,
  PromptReferenceSchema,
  type ResourceTemplateReference,
  ResourceTemplateReferenceSchema,
} from "../2025-06-18/completion.js";
