/**
 * twind configuration (Tailwind class names). Colours are shadcn/ui-style tokens backed by CSS
 * variables defined in the preflight, so `bg-primary`, `text-muted-foreground`, `border-border`
 * and opacity modifiers (`bg-primary/90`) all work.
 */
import { defineConfig } from "@twind/core";
import presetTailwind from "@twind/preset-tailwind";

/** `hsl(var(--name) / <alpha-value>)` for a token. */
const token = (name: string) => `hsl(var(--${name}) / <alpha-value>)`;

const palette = (name: string) => ({
  DEFAULT: token(name),
  foreground: token(`${name}-foreground`),
});

/** Token values (HSL triples) for light mode. */
const variables = {
  "--background": "0 0% 100%",
  "--foreground": "222 47% 11%",
  "--primary": "142 72% 29%",
  "--primary-foreground": "210 40% 98%",
  "--secondary": "210 40% 96%",
  "--secondary-foreground": "222 47% 11%",
  "--muted": "210 40% 96%",
  "--muted-foreground": "215 16% 40%",
  "--accent": "210 40% 94%",
  "--accent-foreground": "222 47% 11%",
  "--destructive": "0 72% 45%",
  "--destructive-foreground": "0 0% 100%",
  "--success": "142 72% 29%",
  "--success-foreground": "0 0% 100%",
  "--card": "0 0% 100%",
  "--card-foreground": "222 47% 11%",
  "--popover": "0 0% 100%",
  "--popover-foreground": "222 47% 11%",
  "--border": "214 32% 88%",
  "--input": "214 32% 80%",
  "--ring": "142 72% 29%",
};

export default {
  ...defineConfig({
    presets: [presetTailwind()],
    hash: false,
    theme: {
      extend: {
        colors: {
          background: token("background"),
          foreground: token("foreground"),
          primary: palette("primary"),
          secondary: palette("secondary"),
          muted: palette("muted"),
          accent: palette("accent"),
          destructive: palette("destructive"),
          success: palette("success"),
          card: palette("card"),
          popover: palette("popover"),
          border: token("border"),
          input: token("input"),
          ring: token("ring"),
        },
        // Used raw by the preflight, where `<alpha-value>` would not be replaced.
        borderColor: { DEFAULT: "hsl(var(--border))" },
        ringColor: { DEFAULT: "hsl(var(--ring))" },
        ringOpacity: { DEFAULT: "1" },
        fontFamily: {
          sans: [
            "Inter",
            "ui-sans-serif",
            "system-ui",
            "-apple-system",
            "Segoe UI",
            "Roboto",
            "Helvetica Neue",
            "Arial",
            "sans-serif",
          ],
          mono: ["ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "monospace"],
        },
        borderRadius: { lg: "0.5rem", md: "0.375rem", sm: "0.25rem" },
      },
    },
    preflight: {
      ":root": variables,
      body: { "@apply": "bg-background text-foreground font-sans antialiased" },
    },
  }),
  selfURL: import.meta.url,
};
