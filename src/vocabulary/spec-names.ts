/** How spec names compare, wherever they are matched: ignoring case, spaces and punctuation. */

/** Case- and punctuation-insensitive key of a spec name: "Voltage - supply" and "Voltage-Supply" -> "voltagesupply". */
export function specNameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * A name written the way Octopart and Nexar write attribute shortnames: lower case, spaces dropped, every
 * other character that is not a letter or digit as '_' ("Voltage Rating (DC)" -> "voltagerating_dc_",
 * "Case/Package" -> "case_package", "Peak Non-Repetitive Surge Current" -> "peaknon_repetitivesurgecurrent").
 */
export function octopartShortname(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/[^\p{L}\p{N}]/gu, '_');
}
