import { describeStreamableHttpContracts } from "./test-support/contract-suites.js";

// The transport contract suites on the web handler called by fetch; which suites run, and why these:
// test-support/contract-suites.ts.
describeStreamableHttpContracts("web");
