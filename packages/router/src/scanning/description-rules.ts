/**
 * The heuristics of the description scanner, one rule per way published tool-poisoning examples
 * hide instructions for the model in a description. They flag; they prove nothing (SECURITY.md:
 * a backend's descriptions are untrusted input).
 */

/** The name of a rule, as findings report it. */
export type ScanRule =
  | "invisible-unicode"
  | "override-instructions"
  | "instruction-tag"
  | "tool-imperative"
  | "concealment"
  | "exfiltration-url";

/** A rule: the patterns whose first match it reports. */
export interface DescriptionRule {
  readonly rule: ScanRule;
  readonly patterns: readonly RegExp[];
  /** Also required somewhere in the same text (the URL of `exfiltration-url`). */
  readonly requires?: RegExp;
}

/**
 * Characters a reader does not see: Unicode tag characters (U+E0000 to U+E007F, which can spell
 * ASCII text invisibly), zero-width characters and the bidirectional overrides and isolates.
 */
export const INVISIBLE_CHARACTERS =
  /[\u{E0000}-\u{E007F}\u200B-\u200F\u2060-\u2064\uFEFF\u202A-\u202E\u2066-\u2069\u00AD\u180E]/u;

const addressee = "(?:all|any|every|each|another|other|the other)";

/** Every rule but `invisible-unicode` (which `scanText` checks by character). */
export const DESCRIPTION_RULES: readonly DescriptionRule[] = [
  {
    rule: "override-instructions",
    patterns: [
      /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|these\s+)?(?:previous|prior|above|earlier|preceding|other|system|all|existing)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages)\b/i,
      /\byour (?:new|real|true) instructions (?:are|follow)\b/i,
    ],
  },
  {
    rule: "instruction-tag",
    patterns: [/<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin)\s*>/i],
  },
  {
    rule: "tool-imperative",
    patterns: [
      new RegExp(
        String.raw`\bbefore\s+(?:using|calling|invoking|running)\s+${addressee}\s+(?:\w+\s+){0,2}?(?:tools?|functions?)\b`,
        "i",
      ),
      /\b(?:instead of|rather than)\s+(?:using|calling|invoking)\s+(?:the\s+)?[\w.-]+\s+tool\b/i,
      /\b(?:always|must)\s+(?:first\s+)?(?:call|use|invoke|run)\s+this\s+tool\s+(?:first|before)\b/i,
      /\bside effects?\s+on\s+(?:the\s+)?(?:\w+\s+){0,3}?tools?\b/i,
      new RegExp(String.raw`\bwhen(?:ever)?\s+${addressee}\s+tools?\s+is\s+(?:called|used)\b`, "i"),
    ],
  },
  {
    rule: "concealment",
    patterns: [
      /\b(?:do not|don't|never|must not)\s+(?:tell|inform|mention|reveal|show|notify|alert|let)\s+(?:this\s+|it\s+|that\s+|anything\s+)?(?:to\s+)?(?:the\s+)?users?\b/i,
      /\b(?:do not|don't|never)\s+mention\b/i,
      /\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+the\s+user\b/i,
      /\bthe\s+user\s+(?:must|should)\s+not\s+(?:know|see|notice|be told)\b/i,
    ],
  },
  {
    rule: "exfiltration-url",
    patterns: [
      /\b(?:send|post|upload|forward|transmit|exfiltrate|submit|leak|copy)\w*\s+(?:(?:the|all|its|their|any|every|your|this|that|full|entire|whole)\s+)*(?:[\w./~-]+\s+){0,2}?(?:contents?|credentials?|secrets?|api keys?|keys|tokens?|passwords?|conversation|chat history|history|environment variables?|private keys?)\b/i,
    ],
    requires: /\bhttps?:\/\/[^\s"'<>)]+/i,
  },
];
