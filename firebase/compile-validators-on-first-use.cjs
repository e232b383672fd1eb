// Loaded into the Firebase Auth Emulator's process (scripts/local_stack.py: node --require).
//
// The emulator checks every request against Google's description of the Identity Toolkit API
// through exegesis, which by default compiles a validator for every parameter of every operation
// as the emulator starts, each with a new Ajv that compiles the JSON Schema meta-schema again:
// about 16 s of CPU before the emulator answers. exegesis's own `lazyCompileValidationSchemas`
// compiles each validator when a request first needs it instead; requests are checked exactly as
// before. The emulator does not set the option, so it becomes exegesis's default here.
const options = require("exegesis/lib/options");

const compileOptions = options.compileOptions;
options.compileOptions = (given = {}) =>
  compileOptions({ lazyCompileValidationSchemas: true, ...given });
