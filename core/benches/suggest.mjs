// One `files.suggest` through the Node addon, as a whole process: the bench times it.
//   node core/benches/suggest.mjs <project-dir> <query>
import { Engine } from '../../bindings/node/index.mjs'

const [projectDir, query] = process.argv.slice(2)
const { paths } = new Engine().filesSuggest(query, { projectDir })
process.stdout.write(paths.join('\n') + '\n')
