// ES module entry of cc-search: the same objects as the CommonJS entry (index.js).
import cjs from './index.js'

export const {
  Engine,
  CcSearchError,
  ERROR_CODES,
  VERSION,
  version,
  operations,
  agentAnswer,
  serveMcp,
  HOOK_INPUT_LIMIT,
  hookInputComplete,
} = cjs
export default cjs
