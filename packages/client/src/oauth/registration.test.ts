import { describe, expect, it } from "vitest";
import {
  applicationTypeFor,
  clientMetadataDocumentId,
  registrationAuthMethod,
  withDefaultSecretExpiry,
} from "./registration.js";

describe("registrationAuthMethod", () => {
  it("registers a public client when the server offers none or names no method", () => {
    expect(registrationAuthMethod(undefined)).toBe("none");
    expect(registrationAuthMethod(["client_secret_basic", "none"])).toBe("none");
  });

  it("registers with the secret-based method the server offers", () => {
    expect(registrationAuthMethod(["client_secret_basic"])).toBe("client_secret_basic");
    expect(registrationAuthMethod(["client_secret_post"])).toBe("client_secret_post");
    expect(registrationAuthMethod(["private_key_jwt", "client_secret_post"])).toBe(
      "client_secret_post",
    );
  });
});

describe("withDefaultSecretExpiry", () => {
  const json = (body: unknown, status = 201) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  it("adds client_secret_expires_at 0 to a secret issued without it", async () => {
    const fixed = await withDefaultSecretExpiry(json({ client_id: "c", client_secret: "s" }));
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("content-type")).toBe("application/json");
    expect(await fixed.json()).toEqual({
      client_id: "c",
      client_secret: "s",
      client_secret_expires_at: 0,
    });
  });

  it("leaves a complete registration, a public client and an error alone", async () => {
    const complete = { client_id: "c", client_secret: "s", client_secret_expires_at: 99 };
    expect(await (await withDefaultSecretExpiry(json(complete))).json()).toEqual(complete);
    expect(await (await withDefaultSecretExpiry(json({ client_id: "c" }))).json()).toEqual({
      client_id: "c",
    });
    const error = json({ error: "invalid_client_metadata", client_secret: "x" }, 400);
    expect(await withDefaultSecretExpiry(error)).toBe(error);
  });
});

describe("applicationTypeFor", () => {
  it("is native for a loopback or custom-scheme redirect, web for an https site", () => {
    expect(applicationTypeFor(new URL("http://127.0.0.1:8976/callback"))).toBe("native");
    expect(applicationTypeFor(new URL("http://localhost:3000/callback"))).toBe("native");
    expect(applicationTypeFor(new URL("com.example.app:/oauth"))).toBe("native");
    expect(applicationTypeFor(new URL("https://app.example.com/callback"))).toBe("web");
  });
});

describe("clientMetadataDocumentId", () => {
  const url = new URL("https://app.example.com/oauth/client.json");

  it("uses the metadata document URL as a public client id when the server supports it", () => {
    expect(clientMetadataDocumentId(url, { client_id_metadata_document_supported: true })).toEqual({
      clientId: "https://app.example.com/oauth/client.json",
      tokenEndpointAuthMethod: "none",
    });
  });

  it("is undefined without a URL or without the server's support", () => {
    expect(
      clientMetadataDocumentId(undefined, { client_id_metadata_document_supported: true }),
    ).toBeUndefined();
    expect(clientMetadataDocumentId(url, {})).toBeUndefined();
    expect(
      clientMetadataDocumentId(url, { client_id_metadata_document_supported: "yes" }),
    ).toBeUndefined();
  });
});
