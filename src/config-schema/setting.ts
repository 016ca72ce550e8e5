/**
 * The kind of setting most areas' tables hold (src/config-schema.ts): a whole number with its default,
 * its bounds and its description, one row of docs/CONFIGURATION.md. A module of its own so that every
 * area's table uses the one helper, and none imports the module that composes them.
 */
import { Type } from '@sinclair/typebox';

/** A whole-number setting: its default, its bounds and its description. */
export const Int = (opts: { default: number; minimum: number; maximum?: number; description: string }) =>
  Type.Integer(opts);
