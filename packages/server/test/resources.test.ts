import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { connectClient, nextEvent, rejectionOf } from "./harness.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function createLibrary(): Server {
  const created = createServer({ name: "library", version: "1" });
  created.registerResource(
    "readme",
    "file:///readme.md",
    { title: "Readme", mimeType: "text/markdown", size: 5 },
    (uri) => ({ contents: [{ uri, mimeType: "text/markdown", text: "hello" }] }),
  );
  created.registerResourceTemplate(
    "book",
    "books://{shelf}/{title}",
    {
      description: "A book",
      complete: {
        shelf: (value) =>
          ["fiction", "fantasy", "history"].filter((shelf) => shelf.startsWith(value)),
      },
    },
    (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }] }),
  );
  return created;
}

describe("resources", () => {
  it("lists static resources and templates", async () => {
    server = createLibrary();
    const { client } = await connectClient(server);
    expect(await client.listAllResources()).toEqual([
      {
        uri: "file:///readme.md",
        name: "readme",
        title: "Readme",
        mimeType: "text/markdown",
        size: 5,
      },
    ]);
    expect(await client.listAllResourceTemplates()).toEqual([
      { uriTemplate: "books://{shelf}/{title}", name: "book", description: "A book" },
    ]);
  });

  it("reads a static resource", async () => {
    server = createLibrary();
    const { client } = await connectClient(server);
    const result = await client.readResource({ uri: "file:///readme.md" });
    expect(result.contents).toEqual([
      { uri: "file:///readme.md", mimeType: "text/markdown", text: "hello" },
    ]);
  });

  it("reads through a template with the decoded variables", async () => {
    server = createLibrary();
    const { client } = await connectClient(server);
    const result = await client.readResource({ uri: "books://fiction/war%20and%20peace" });
    expect(result.contents[0]).toMatchObject({
      text: '{"shelf":"fiction","title":"war and peace"}',
    });
  });

  it("answers an unknown URI with -32002 and the URI in data", async () => {
    server = createLibrary();
    const { client } = await connectClient(server);
    const error = await rejectionOf(client.readResource({ uri: "file:///missing" }));
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ uri: "file:///missing" });
  });

  it("completes template variables", async () => {
    server = createLibrary();
    const { client } = await connectClient(server);
    const result = await client.complete({
      ref: { type: "ref/resource", uri: "books://{shelf}/{title}" },
      argument: { name: "shelf", value: "f" },
    });
    expect(result.completion).toEqual({ values: ["fiction", "fantasy"], total: 2, hasMore: false });
  });

  it("refuses a completion provider for a variable the template lacks", () => {
    server = createServer({ name: "s", version: "1" });
    expect(() =>
      server.registerResourceTemplate("t", "x://{a}", { complete: { b: () => [] } }, (uri) => ({
        contents: [{ uri, text: "" }],
      })),
    ).toThrow(/no variable "b"/);
  });

  it("sends resources/updated only to sessions subscribed to the URI, until they unsubscribe", async () => {
    server = createLibrary();
    const subscriber = await connectClient(server);
    const bystander = await connectClient(server);
    const bystanderSeen: string[] = [];
    bystander.client.on("notifications/resources/updated", ({ uri }) => bystanderSeen.push(uri));
    await subscriber.client.subscribeResource("file:///readme.md");
    const updated = nextEvent((listener) =>
      subscriber.client.on("notifications/resources/updated", listener),
    );
    await server.notifyResourceUpdated("file:///readme.md");
    expect(await updated).toEqual({ uri: "file:///readme.md" });
    await bystander.client.ping();
    expect(bystanderSeen).toEqual([]);

    await subscriber.client.unsubscribeResource("file:///readme.md");
    const subscriberSeen: string[] = [];
    subscriber.client.on("notifications/resources/updated", ({ uri }) => subscriberSeen.push(uri));
    await server.notifyResourceUpdated("file:///readme.md");
    await subscriber.client.ping();
    expect(subscriberSeen).toEqual([]);
  });

  it("sends resources/list_changed when a resource or template is registered later", async () => {
    server = createLibrary();
    const { client } = await connectClient(server);
    const changed = nextEvent((listener) =>
      client.on("notifications/resources/list_changed", listener),
    );
    server.registerResourceTemplate("late", "late://{x}", {}, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
    await changed;
    expect(await client.listAllResourceTemplates()).toHaveLength(2);
  });
});
