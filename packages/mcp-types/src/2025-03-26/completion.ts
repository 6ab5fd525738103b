/* Revision 2025-03-26: unchanged from 2024-11-05. */
export {
  PromptReferenceSchema,
  ResourceReferenceSchema,
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  type PromptReference,
  type ResourceReference,
  type CompleteRequestParams,
  type CompleteRequest,
  type CompleteResult,
} from "../2024-11-05/completion.js";
