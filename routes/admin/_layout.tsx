import type { LayoutProps } from "$fresh/server.ts";
import AdminFlash from "@/islands/AdminFlash.tsx";

/** The admin frame: no public header, a muted page with a centred content column. */
export default function AdminLayout({ Component }: LayoutProps) {
  return (
    <div className="min-h-screen bg-muted/30">
      <main id="main" className="mx-auto w-full max-w-7xl px-4 py-8">
        <Component />
        <AdminFlash />
      </main>
    </div>
  );
}
