// Text saved in a single-byte code page, byte by byte, as a program on an Arabic Windows (or one set to ISO-8859-6)
// writes it: each character's byte found with the platform's own decoder, so the tests use no encoder of their own.

/** `text` saved in `encoding`; a character the code page has not throws. */
export function savedIn(encoding: 'windows-1256' | 'iso-8859-6', text: string): Buffer {
  const decoder = new TextDecoder(encoding);
  const bytes = new Map<string, number>();
  for (let byte = 0; byte < 256; byte++) bytes.set(decoder.decode(Uint8Array.of(byte)), byte);
  return Buffer.from(
    [...text].map((char) => {
      const byte = bytes.get(char);
      if (byte === undefined) throw new Error(`${encoding} has no ${char}`);
      return byte;
    }),
  );
}
