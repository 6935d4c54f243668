/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where phone browsers are sent (path or absolute URL); defaults to /activity. */
  readonly VITE_MOBILE_HOME_URL?: string;
}
