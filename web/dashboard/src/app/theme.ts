import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 and darker keep white text and links on light backgrounds above 4.5:1 (WCAG AA).
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  // Filled yellow (internal notes) and other light fills get dark text instead of white.
  autoContrast: true,
  // A user who asked their system for less motion gets dialogs and menus without the fade.
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

const TINTED = ['blue', 'gray', 'green', 'indigo', 'orange', 'red', 'teal', 'yellow'];

/** Mantine's dimmed grey (gray.6) is 3.3:1 on white; gray.7 reads as secondary and passes AA. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // A field's error text in red.7 is 3.9:1 on white; red.9 keeps the hue and passes AA.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // The same for red text (`c="red"`, the alerts under forms and the composer).
    '--mantine-color-red-text': 'var(--mantine-color-red-9)',
    // Light badges and active nav links write in shade 9 on a shade-1 tint: under 4.5:1 for
    // orange, teal, yellow and others. A darker mix of the same hue keeps the look and passes AA.
    ...Object.fromEntries(
      TINTED.map((color) => [
        `--mantine-color-${color}-light-color`,
        `color-mix(in srgb, var(--mantine-color-${color}-9) 65%, black)`,
      ]),
    ),
  },
  dark: {},
});
