export {
  type OtlpJsonMetric,
  type OtlpJsonSpan,
  type OtlpReceivedRequest,
  type OtlpReceiver,
  startOtlpReceiver,
} from "./otlp-receiver.js";
