#!/usr/bin/env node
// Only a dispatcher: `credentials` loads the store's code alone, not the whole proxy, so that an
// operator's `credentials set` starts at once.
const code =
  process.argv[2] === "credentials"
    ? await (await import("./credentials-main.js")).credentialsMain(process.argv.slice(3))
    : await (await import("./serve-cli.js")).serveMain();
// Exit explicitly: a backend transport or timer left behind must not keep the proxy alive.
process.exit(code);
