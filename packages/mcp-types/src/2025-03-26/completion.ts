/* Revision 2025-03-26: unchanged from 2024-11-05. */
export {
  type CompleteRequest,
  type CompleteRequestParams,
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  type CompleteResult,
  CompleteResultSchema,
  type PromptReference,
  PromptReferenceSchema,
  type ResourceReference,
  ResourceReferenceSchema,
} from "../2024-11-05/completion.js";
