import type { SocialPreview } from "@/lib/og/previews.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "@/lib/og/cards.ts";

/**
 * The Open Graph and Twitter card tags of a page (put it in `<Head>`): what a chat or social app
 * shows when someone pastes the page's link. Every URL in `preview` is absolute.
 */
export function SocialMeta({ preview }: { preview: SocialPreview }) {
  const { title, description, url, image, imageAlt } = preview;
  return (
    <>
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content="Fantasy Contests" />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={image} />
      <meta property="og:image:type" content="image/png" />
      <meta property="og:image:width" content={String(CARD_WIDTH)} />
      <meta property="og:image:height" content={String(CARD_HEIGHT)} />
      <meta property="og:image:alt" content={imageAlt} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
      <meta name="twitter:image:alt" content={imageAlt} />
    </>
  );
}
