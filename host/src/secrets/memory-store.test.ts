import { MemorySecretStore } from "./index.js";
import { secretStoreContract } from "../../../test/trust/secret-store-contract.js";

// Each call makes a new, empty store: memory never outlives its instance.
secretStoreContract("memory", () => new MemorySecretStore());
