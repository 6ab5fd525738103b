import { describeStreamableHttpContracts } from "./test-support/contract-suites.js";

// The transport contract suites on the web handler behind node:http; which suites run, and why these:
// test-support/contract-suites.ts.
describeStreamableHttpContracts("web-over-node-http");
