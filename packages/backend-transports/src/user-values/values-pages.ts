import type { ServerResponse } from "node:http";

/**
 * The headers of every page: no script at all, forms posted to the program only, never framed,
 * never cached, no referrer to another origin (the link is in the form page's URL). `same-origin`,
 * not `no-referrer`: under `no-referrer` a browser sends the form's POST with `Origin: null`, which
 * the same-origin check must refuse.
 */
export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "cache-control": "no-store",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
} as const;

/** What the form shows: the slot names and the link, never a value. */
export interface ValuesForm {
  /** Where it is posted: the page's path, without the link. */
  readonly action: string;
  readonly link: string;
  readonly backend: string;
  readonly principal: string;
  readonly fields: readonly { readonly slot: string; readonly name: string }[];
}

/** The form with one password field per slot. */
export function formPage(response: ServerResponse, form: ValuesForm): void {
  const fields = form.fields
    .map(
      ({ slot, name }) =>
        `<p><label>${escapeHtml(slot)}<br><input type="password" name="${escapeHtml(name)}" autocomplete="off" required></label></p>`,
    )
    .join("\n");
  const body = `<h1>Your credential for ${escapeHtml(form.backend)}</h1>
<p>Stored sealed for ${escapeHtml(form.principal)} and sent only to ${escapeHtml(form.backend)}.</p>
<form method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="link" value="${escapeHtml(form.link)}">
${fields}
<p><button type="submit">Save</button></p>
</form>`;
  write(response, 200, `Your credential for ${form.backend}`, body);
}

/** A page with one fixed sentence (never an echo of what was sent). */
export function messagePage(response: ServerResponse, status: number, text: string): void {
  write(response, status, text, `<p>${escapeHtml(text)}</p>`);
}

function write(response: ServerResponse, status: number, title: string, body: string): void {
  response.writeHead(status, PAGE_HEADERS);
  response.end(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`,
  );
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
