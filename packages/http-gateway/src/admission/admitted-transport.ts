import {
  type Frame,
  type FrameInfo,
  type TappedTransport,
  type Transport,
  tapTransport,
} from "@patchbay/jsonrpc-core";
import type { AdmittedFrame, RefusedRequest } from "./frame-admission.js";

/**
 * Wraps the transport of a connection whose entry was admitted (a WebSocket) so that each incoming
 * frame is admitted too before anyone hears it: `admit` decides, the refused requests are answered
 * here (and reported to `onRefused`), the rest goes on in arrival order.
 */
export function admitEachFrame(
  inner: Transport,
  admit: (frame: Frame, info: FrameInfo) => Promise<AdmittedFrame>,
  onRefused: (refused: RefusedRequest) => void,
): Transport {
  // Frames are admitted one after another (a shared limiter answers asynchronously).
  let admitting: Promise<void> = Promise.resolve();
  const deliver = (admitted: AdmittedFrame) => {
    for (const refused of admitted.refused) onRefused(refused);
    for (const answer of admitted.answers) inner.send(answer).catch(() => {});
    if (admitted.frame !== undefined) tapped.emitFrame(admitted.frame, admitted.info);
  };
  const tapped: TappedTransport = tapTransport(inner, {
    incoming(frame, info) {
      admitting = admitting
        .then(() => admit(frame, info))
        .then(deliver)
        .catch((error: unknown) => tapped.emitError(toError(error)));
      // Held back: `deliver` lets it on once admitted.
      return undefined;
    },
  });
  return tapped;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
