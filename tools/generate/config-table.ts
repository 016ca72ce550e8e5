/** `npm run readme:config`: prints the configuration table the README's configuration section holds. */
import { configurationTable } from '../../src/config.ts';

console.log(configurationTable());
