/**
 * JSON as other tools write it. Python's json module (asv) writes NaN and Infinity for a
 * benchmark that measured nothing, which JSON.parse refuses: such files are read again with
 * those tokens as null, a missing result. Pure: takes text, returns data.
 *
 * @module
 */
import { configError } from '../errors.js';

/** Parses a tool's JSON; a syntax error becomes one line naming the file. */
export function parseToolJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Only a failed parse pays for the rewrite; the tokens cannot occur in valid JSON outside strings.
    try {
      return JSON.parse(text.replace(/-?\bInfinity\b|\bNaN\b/g, 'null'));
    } catch {
      throw configError(`${file}: not valid JSON: ${(error as Error).message}`);
    }
  }
}
