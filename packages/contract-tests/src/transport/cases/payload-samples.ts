/** Strings that break naive encoders, decoders and line framers; none has a lone surrogate. */
export const UNICODE_SAMPLES: Readonly<Record<string, string>> = {
  astral: "😀 🎉 𝄞 𐍈 🏳️‍🌈 👩‍👩‍👧‍👦 🇺🇦",
  combining: "e\u0301 a\u0308 n\u0303 Z\u0324\u0354\u0367\u0311\u0313 \u0915\u094d\u0937",
  "right to left": "שלום עולם · مرحبا بالعالم · \u202eevil\u202c · \u200f",
  "NUL and control characters": "a\u0000b \u0001\u0007\u001b[31m\u001f \u007f \u0085",
  "escaped newlines": 'line one\nline two\r\nline three\rtab\there "quoted" back\\slash',
  "line and paragraph separators": "before\u2028between\u2029after",
  "framing traps": '}\n{"jsonrpc":"2.0","method":"injected"}\n\n',
  "byte order mark and non-characters": "\ufeffstart \ufffd \uffff \ufffe end",
  "wide and narrow": "ｆｕｌｌｗｉｄｔｈ 漢字 かな 한국어 ελληνικά кириллица",
  empty: "",
};

/** A JSON value mixing the samples into keys, arrays and numbers at the edges of exactness. */
export function mixedPayload(): Record<string, unknown> {
  return {
    "ключ 🔑": "значение",
    "key\nwith\nnewlines": ["\u0000", "\u2028", "😀"],
    numbers: [0, -1, 1.5, 1e-7, 1e300, 9_007_199_254_740_991, -9_007_199_254_740_991],
    literals: [true, false, null],
    nested: { deeper: { deepest: Object.values(UNICODE_SAMPLES) } },
  };
}

/** How big the large-frame case's payload is, in bytes of UTF-8. */
export const LARGE_PAYLOAD_BYTES = 10 * 1024 * 1024;

/**
 * A string of at least `bytes` bytes of UTF-8 whose characters are 1 to 4 bytes wide, so that any
 * chunk boundary in a stream is likely to fall inside a character, and with escapes that change its
 * length when encoded as JSON.
 */
export function largeString(bytes: number): string {
  return LARGE_UNIT.repeat(unitsFor(bytes));
}

/** The size in bytes of the JSON of the frame that carries `largeString(bytes)`, rounded up. */
export function largeFrameBytes(bytes: number): number {
  const unitJSONBytes = utf8Length(JSON.stringify(LARGE_UNIT)) - 2;
  return unitsFor(bytes) * unitJSONBytes + 1024;
}

const LARGE_UNIT = 'abcdefghij0123456789é€😀"\\\n\t\u0000';

function unitsFor(bytes: number): number {
  return Math.ceil(bytes / utf8Length(LARGE_UNIT));
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}
