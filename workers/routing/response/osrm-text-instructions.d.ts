/** Types of the parts of osrm-text-instructions (a CommonJS package without its own types) that Waymark uses. */
declare module 'osrm-text-instructions' {
  interface CompileOptions {
    legIndex?: number;
    legCount?: number;
    waypointName?: string;
  }
  interface TextInstructions {
    /** The instruction of an OSRM v5 step (`maneuver`, `name`, `ref`, `mode`…) in a supported language. */
    compile(language: string, step: object, options?: CompileOptions): string;
  }
  function textInstructions(version: 'v5'): TextInstructions;
  export default textInstructions;
}

declare module 'osrm-text-instructions/languages.js' {
  const languages: { supportedCodes: string[] };
  export default languages;
}
