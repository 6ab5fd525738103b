import { describeTransportContract } from "@patchbay/contract-tests";
import { streamableHttpContractSuites } from "./test-support/contract-suites.js";

// The transport contract suites on the web handler called by fetch; which suites run, and why these:
// test-support/contract-suites.ts.
for (const suite of streamableHttpContractSuites("web")) describeTransportContract(suite);
