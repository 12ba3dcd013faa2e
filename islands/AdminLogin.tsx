import { type FormEvent, useEffect, useState } from "react";
import { loginSchema } from "@/lib/domain/schemas/public.ts";
import { adminFetch } from "@/lib/client/admin/admin_api.ts";
import { navigateWithToast } from "@/lib/client/admin/flash.ts";
import { ApiError } from "@/lib/client/api.ts";
import { issuesToErrors } from "@/lib/client/form_errors.ts";
import { useMounted } from "@/lib/client/use_mounted.ts";
import { toast } from "@/lib/client/toast.ts";
import { Button } from "@/components/ui/Button.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/Card.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Field, fieldAria } from "@/components/admin/Field.tsx";

type Errors = { username?: string; password?: string };

/** Shows 'Authentication Required' when a protected admin page sent the admin here. */
function useAuthRequiredToast() {
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get("auth") !== "required") return;
    toast({
      title: "Authentication Required",
      description: "Please log in to access the admin portal",
      variant: "destructive",
    });
    history.replaceState(null, "", location.pathname);
  }, []);
}

function validate(username: string, password: string): Errors | null {
  const parsed = loginSchema.safeParse({ username, password });
  return parsed.success ? null : issuesToErrors(parsed.error.issues);
}

/** True when the login answer asks for the second factor (401 `twoFactorRequired`). */
function isCodeRequired(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 401) return false;
  try {
    return JSON.parse(err.body).twoFactorRequired === true;
  } catch {
    return false;
  }
}

export interface AdminLoginProps {
  /** The identity provider admins may also sign in with (OIDC), or null. */
  providerName?: string | null;
}

/**
 * The admin login form: username and password, then the authenticator code when the admin has
 * one; or a sign-in through the identity provider. The session lives in an HttpOnly cookie.
 */
export default function AdminLogin({ providerName = null }: AdminLoginProps) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  /** null until the server asks for the second factor. */
  const [code, setCode] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const mounted = useMounted();
  useAuthRequiredToast();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = validate(username, password);
    setErrors(problems ?? {});
    if (problems) return;
    setBusy(true);
    try {
      const answer = await adminFetch<{ mustEnrolTotp?: boolean }>("/api/admin/login", {
        method: "POST",
        body: code === null ? { username, password } : { username, password, code },
        redirectOn401: false,
      });
      setPassword("");
      navigateWithToast(answer.mustEnrolTotp ? "/admin/2fa" : "/admin/dashboard", {
        title: "Login Successful",
        description: answer.mustEnrolTotp
          ? "Set up two-factor authentication to continue"
          : "Welcome to the admin portal",
      });
    } catch (err) {
      setBusy(false);
      if (isCodeRequired(err) && code === null) {
        setCode("");
        return;
      }
      if (err instanceof ApiError) {
        toast({
          title: "Login Failed",
          description: err.serverMessage ?? "Invalid credentials",
          variant: "destructive",
        });
        return;
      }
      toast({
        title: "Login Error",
        description: "An unexpected error occurred. Please try again.",
        variant: "destructive",
      });
    }
  };

  return (
    <div className="flex min-h-[80vh] items-center justify-center px-4 py-12">
      <Card className="w-full max-w-sm">
        <CardHeader className="items-center text-center">
          <img src="/logo.svg" alt="" width="48" height="48" className="mb-2 h-12 w-12" />
          <h1 className="text-2xl font-semibold tracking-tight">Admin Login</h1>
          <CardDescription>Sign in to manage competitions, matches and players.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="flex flex-col gap-4" method="post" onSubmit={submit} noValidate>
            <Field id="username" label="Username" error={errors.username}>
              <Input
                {...fieldAria("username", errors.username)}
                name="username"
                autoComplete="username"
                value={username}
                onChange={(e) => setUsername(e.currentTarget.value)}
              />
            </Field>
            <Field id="password" label="Password" error={errors.password}>
              <Input
                {...fieldAria("password", errors.password)}
                name="password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
            </Field>
            {code !== null && (
              <Field
                id="code"
                label="Authentication code"
                hint="The 6-digit code from your authenticator app, or a recovery code."
              >
                <Input
                  {...fieldAria("code")}
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  autoFocus
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                />
              </Field>
            )}
            <Button type="submit" className="w-full" disabled={!mounted || busy}>
              {busy ? "Logging in..." : "Login"}
            </Button>
            {providerName && (
              <div className="flex flex-col">
                <Button variant="outline" href="/admin/oauth/signin">
                  Sign in with {providerName}
                </Button>
              </div>
            )}
            <a
              href="/"
              className="text-center text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
            >
              Return to site
            </a>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
