import type { Server } from "@patchbay/server";
import { TEST_IMAGE_BASE64 } from "../fixtures.js";

/** Ids the template `test://template/{id}/data` completes from. */
const TEMPLATE_IDS = ["1", "2", "3", "42", "100", "123"];

/**
 * Static text and binary resources, a template with variable completion, and a watched resource
 * whose updates reach subscribers. URIs and contents are the conformance suite's fixtures.
 */
export function registerResources(server: Server): void {
  server.registerResource(
    "static-text",
    "test://static-text",
    {
      title: "Static Text Resource",
      description: "A static text resource for testing",
      mimeType: "text/plain",
    },
    (uri) => ({
      contents: [
        { uri, mimeType: "text/plain", text: "This is the content of the static text resource." },
      ],
    }),
  );
  server.registerResource(
    "static-binary",
    "test://static-binary",
    {
      title: "Static Binary Resource",
      description: "A static binary resource (image) for testing",
      mimeType: "image/png",
    },
    (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: TEST_IMAGE_BASE64 }] }),
  );
  server.registerResourceTemplate(
    "template",
    "test://template/{id}/data",
    {
      title: "Resource Template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
      complete: { id: (value) => TEMPLATE_IDS.filter((id) => id.startsWith(value)) },
    },
    (uri, { id }) => ({
      contents: [
        {
          uri,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );
  let watchedVersion = 0;
  server.registerResource(
    "watched-resource",
    "test://watched-resource",
    {
      title: "Watched Resource",
      description: "A resource that changes when the update_watched_resource tool runs",
      mimeType: "text/plain",
    },
    (uri) => ({
      contents: [
        {
          uri,
          mimeType: "text/plain",
          text:
            watchedVersion === 0
              ? "Watched resource content"
              : `Watched resource content, version ${watchedVersion}`,
        },
      ],
    }),
  );
  server.registerTool(
    "update_watched_resource",
    { description: "Changes test://watched-resource and notifies its subscribers" },
    async () => {
      watchedVersion += 1;
      await server.notifyResourceUpdated("test://watched-resource");
      return {
        content: [{ type: "text", text: `Watched resource is now version ${watchedVersion}` }],
      };
    },
  );
}
