import { describeStreamableHttpContracts } from "./test-support/contract-suites.js";

// The transport contract suites on the node:http handler; which suites run, and why these:
// test-support/contract-suites.ts.
describeStreamableHttpContracts("node");
