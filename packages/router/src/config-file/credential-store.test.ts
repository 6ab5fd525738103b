import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deleteCredentials, readCredentialStore, setCredential } from "./credential-store.js";
import { CredentialStoreError, parseCredentialsKey } from "./credentials-key.js";

const SECRET = "ghp_secret-value-of-alice";

describe("the credential store", { timeout: 5_000 }, () => {
  let folder: string;
  let path: string;
  const key = randomBytes(32);
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "patchbay-credentials-"));
    path = join(folder, "credentials.json");
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("keeps values encrypted in a file of mode 0600 and reads them back", () => {
    expect(readCredentialStore(path, key).list()).toEqual([]);
    setCredential(path, key, { principal: "alice", backend: "gh", slot: "token" }, SECRET);
    setCredential(path, key, { principal: "bob", backend: "gh", slot: "token" }, "bob-value");
    setCredential(path, key, { principal: "alice", backend: "gh", slot: "token" }, `${SECRET}2`);
    const store = readCredentialStore(path, key);
    expect(store.valuesFor("alice", "gh")).toEqual({ token: `${SECRET}2` });
    expect(store.valuesFor("bob", "gh")).toEqual({ token: "bob-value" });
    expect(store.valuesFor("carol", "gh")).toBeUndefined();
    expect(store.secretValues().sort()).toEqual([`${SECRET}2`, "bob-value"].sort());
    expect(store.list()).toEqual([
      { principal: "alice", backend: "gh", slot: "token" },
      { principal: "bob", backend: "gh", slot: "token" },
    ]);
    const bytes = readFileSync(path, "utf8");
    expect(bytes).not.toContain(SECRET);
    expect(bytes).not.toContain("bob-value");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(deleteCredentials(path, key, { principal: "alice", backend: "gh" })).toBe(1);
    expect(readCredentialStore(path, key).list()).toEqual([
      { principal: "bob", backend: "gh", slot: "token" },
    ]);
  });

  it("says why it cannot write, and leaves no temporary file", () => {
    const missing = join(folder, "no-such-folder", "credentials.json");
    expect(() =>
      setCredential(missing, key, { principal: "alice", backend: "gh", slot: "token" }, SECRET),
    ).toThrow(/cannot write the credential store .*no-such-folder/);
    setCredential(path, key, { principal: "alice", backend: "gh", slot: "token" }, SECRET);
    expect(readdirSync(folder)).toEqual(["credentials.json"]);
  });

  it("refuses a file sealed with another key, and one changed by hand", () => {
    setCredential(path, key, { principal: "alice", backend: "gh", slot: "token" }, SECRET);
    expect(() => readCredentialStore(path, randomBytes(32))).toThrow(/sealed with another key/);
    const file = JSON.parse(readFileSync(path, "utf8"));
    // A value moved to another principal no longer opens.
    file.values[0].principal = "mallory";
    writeFileSync(path, JSON.stringify(file));
    expect(() => readCredentialStore(path, key)).toThrow(CredentialStoreError);
    expect(() => readCredentialStore(path, key)).toThrow(/a value was changed/);
  });

  it("accepts a random 32-byte key in hex or base64 and refuses anything else", () => {
    const random = randomBytes(32);
    expect(parseCredentialsKey(random.toString("hex")).equals(random)).toBe(true);
    expect(parseCredentialsKey(random.toString("base64")).equals(random)).toBe(true);
    expect(() => parseCredentialsKey(undefined)).toThrow(/PATCHBAY_CREDENTIALS_KEY is not set/);
    expect(() => parseCredentialsKey(randomBytes(16).toString("hex"))).toThrow(/must be 32 bytes/);
    expect(() => parseCredentialsKey("0".repeat(64))).toThrow(/not a random key/);
    expect(() => parseCredentialsKey("correct horse battery staple")).toThrow(/must be 32 bytes/);
  });
});
