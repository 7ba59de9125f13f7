// Bin entry of hplugin (bundled to dist/cli/hplugin.js by `npm run build:cli`, launched by bin/hplugin.js).
import { main } from './main';

process.exitCode = await main(process.argv.slice(2));
