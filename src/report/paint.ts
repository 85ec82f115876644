/** Colours a renderer may ask for; the CLI decides whether they are shown. */
const CODES = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof CODES;

export type Paint = (text: string, colour: Colour) => string;

/** No colour: what every format but a terminal's text gets. */
export const plain: Paint = (text) => text;

/** Colour only when the stream is a terminal and NO_COLOR is unset. */
export function painter(enabled: boolean): (text: string, colour: Colour) => string {
  return (text, colour) => (enabled ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text);
}
