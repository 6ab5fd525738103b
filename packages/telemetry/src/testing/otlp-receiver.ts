import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One export an {@link OtlpReceiver} received. */
export interface OtlpReceivedRequest {
  /** `/v1/traces` or `/v1/metrics`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The decoded body of an `application/json` export (OTLP/JSON), else `undefined`. */
  readonly json: unknown;
}

/** A span of an OTLP/JSON export, its attributes as plain values. */
export interface OtlpJsonSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly status: { readonly code?: number; readonly message?: string } | undefined;
  /** `service.name` of the resource that exported it. */
  readonly serviceName: unknown;
}

/** A metric of an OTLP/JSON export, with its histogram points' attributes as plain values. */
export interface OtlpJsonMetric {
  readonly name: string;
  readonly unit: string | undefined;
  readonly points: readonly {
    readonly attributes: Readonly<Record<string, unknown>>;
    readonly count: number;
  }[];
}

/** An in-process OTLP/HTTP collector for tests: records every export and answers it accepted. */
export interface OtlpReceiver {
  /** The base URL to configure (`http://127.0.0.1:<port>`). */
  readonly endpoint: string;
  /** Every export received so far, in order. */
  readonly requests: readonly OtlpReceivedRequest[];
  /** Resolves with the first export (received already or later) that `matches`. */
  waitFor(matches: (request: OtlpReceivedRequest) => boolean): Promise<OtlpReceivedRequest>;
  /** The spans of every OTLP/JSON trace export received so far. */
  spans(): OtlpJsonSpan[];
  /** The metrics of every OTLP/JSON metric export received so far. */
  metrics(): OtlpJsonMetric[];
  close(): Promise<void>;
}

interface JsonKeyValue {
  key: string;
  value: Record<string, unknown>;
}

function attributeValue(value: Record<string, unknown>): unknown {
  if ("stringValue" in value) return value.stringValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("boolValue" in value) return value.boolValue;
  return value;
}

function attributesOf(list: readonly JsonKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, attributeValue(value)]));
}

interface JsonResourceSpans {
  resource?: { attributes?: JsonKeyValue[] };
  scopeSpans?: {
    spans?: {
      name: string;
      kind: number;
      traceId: string;
      spanId: string;
      parentSpanId?: string;
      attributes?: JsonKeyValue[];
      status?: { code?: number; message?: string };
    }[];
  }[];
}

interface JsonResourceMetrics {
  scopeMetrics?: {
    metrics?: {
      name: string;
      unit?: string;
      histogram?: { dataPoints?: { attributes?: JsonKeyValue[]; count?: number | string }[] };
    }[];
  }[];
}

/** Starts a receiver on 127.0.0.1 at a port the OS picks. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: OtlpReceivedRequest[] = [];
  const waiters: {
    matches: (request: OtlpReceivedRequest) => boolean;
    resolve: (request: OtlpReceivedRequest) => void;
  }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = request.headers["content-type"] ?? "";
      const json = contentType.includes("json") ? JSON.parse(body.toString("utf8")) : undefined;
      const received: OtlpReceivedRequest = {
        path: request.url ?? "",
        headers: request.headers,
        body,
        json,
      };
      requests.push(received);
      // An empty message is a full success in both encodings.
      response.writeHead(200, { "content-type": contentType || "application/json" });
      response.end(contentType.includes("json") ? "{}" : "");
      for (const waiter of [...waiters]) {
        if (!waiter.matches(received)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(received);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const jsonOf = <T>(path: string, key: string): T[] =>
    requests
      .filter((request) => request.path === path && request.json !== undefined)
      .flatMap((request) => ((request.json as Record<string, T[]>)[key] ?? []) as T[]);

  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    waitFor(matches) {
      const found = requests.find(matches);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ matches, resolve }));
    },
    spans() {
      return jsonOf<JsonResourceSpans>("/v1/traces", "resourceSpans").flatMap((resourceSpans) => {
        const serviceName = attributesOf(resourceSpans.resource?.attributes)["service.name"];
        return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
          (scope.spans ?? []).map((span) => ({
            name: span.name,
            kind: span.kind,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            attributes: attributesOf(span.attributes),
            status: span.status,
            serviceName,
          })),
        );
      });
    },
    metrics() {
      return jsonOf<JsonResourceMetrics>("/v1/metrics", "resourceMetrics").flatMap((resource) =>
        (resource.scopeMetrics ?? []).flatMap((scope) =>
          (scope.metrics ?? []).map((metric) => ({
            name: metric.name,
            unit: metric.unit,
            points: (metric.histogram?.dataPoints ?? []).map((point) => ({
              attributes: attributesOf(point.attributes),
              count: Number(point.count ?? 0),
            })),
          })),
        ),
      );
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
