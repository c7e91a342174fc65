//! Files that are secrets by nature, known by their path alone: dotenv
//! files, private keys, keystores, credentials and token files, Terraform
//! state. Their content is never sent to a model (`llm::outbound`), and the
//! MCP server never returns one (`mcp::tools`, `walk`).
//!
//! Owns only the decision from a path. Does not own what is redacted inside
//! any other file (`redact`), nor a secret written in a path (`redact`'s
//! `redact_path`).

/// Files that are secrets by nature: their content is never sent to a model
/// unless the user opts in. Templates (`.env.example`, `.env.sample`, …) are
/// not; nor is source code named like one (`process.env.d.ts`,
/// `src/credentials_test.py`).
pub fn is_secret_file(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let name = path.rsplit('/').next().unwrap_or("").to_ascii_lowercase();
    let in_dir = |dir: &str| path.split('/').any(|part| part == dir);
    const NAMES: [&str; 44] = [
        ".envrc",
        ".netrc",
        "_netrc",
        ".npmrc",
        ".pypirc",
        ".pgpass",
        "pgpass.conf",
        ".git-credentials",
        ".htpasswd",
        "htpasswd",
        ".dockercfg",
        ".my.cnf",
        ".s3cfg",
        ".boto",
        ".vault-token",
        "credentials",
        "credentials.json",
        "credentials.yml",
        "credentials.yaml",
        "secrets.json",
        "secrets.yml",
        "secrets.yaml",
        "secrets.toml",
        "terraform.tfvars",
        "master.key",
        "serviceaccountkey.json",
        // Tool logins: Terraform Cloud, kubectl, s3fs, Ansible Vault,
        // the Azure CLI's and MSAL's token caches, gcloud's databases.
        ".terraformrc",
        "terraform.rc",
        "credentials.tfrc.json",
        "kubeconfig",
        ".passwd-s3fs",
        "passwd-s3fs",
        ".vault_pass",
        ".vault_password",
        "vault_pass.txt",
        "vault_password.txt",
        "accesstokens.json",
        "msal_token_cache.json",
        "msal_token_cache.bin",
        "credentials.db",
        "access_tokens.db",
        // API keys: Kaggle's, the Databricks CLI's profiles, the Gemini
        // and Qwen CLIs' OAuth logins.
        "kaggle.json",
        ".databrickscfg",
        "oauth_creds.json",
    ];
    const EXTENSIONS: [&str; 13] = [
        "pem",
        "key",
        "p12",
        "pfx",
        "p8",
        "jks",
        "jceks",
        "keystore",
        "kdbx",
        "ppk",
        "tfvars",
        "tfstate",
        "kubeconfig",
    ];
    /// OpenSSH's private key names; `id_rsa.pub` is the public key.
    const KEY_NAMES: [&str; 6] = [
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "id_ecdsa_sk",
        "id_ed25519_sk",
    ];
    if name == ".env" || name.ends_with(".env") {
        return true;
    }
    // `.env.local`, `.env.production.local`, `prod.env.local`,
    // `config.env.json`: a dotenv variant unless a template or source code.
    if let Some(variant) = name.strip_prefix(".env.") {
        return !is_template(variant);
    }
    if let Some((_, variant)) = name.split_once(".env.") {
        return !is_template(variant) && !is_code_extension(extension(variant));
    }
    if NAMES.contains(&name.as_str()) || name.ends_with(".tfstate.backup") {
        return true;
    }
    // `id_rsa`, and its copies: `id_rsa.bak`, `id_ed25519.old`, `id_rsa~`.
    if KEY_NAMES.iter().any(|key| {
        name.strip_prefix(key).is_some_and(|rest| {
            rest.is_empty()
                || (rest.starts_with(['.', '~', '-'])
                    && !name.contains(".pub")
                    && !is_code_extension(extension(rest)))
        })
    }) {
        return true;
    }
    // `deploy_key`, `ssh_host_ed25519_key`: a key file without an extension.
    if !name.contains('.') && name.ends_with("_key") {
        return true;
    }
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name.as_str(), ""));
    // `aws_credentials`, `gcp-credentials.json`, `app_secrets.yml`,
    // `service-account.json`: data files whose name says what they hold.
    let data = ext.is_empty() || DATA_EXTENSIONS.contains(&ext);
    if data
        && (stem.ends_with("credentials")
            || stem.ends_with("secrets")
            || (ext == "json"
                && ["service-account", "service_account", "serviceaccount"]
                    .iter()
                    .any(|p| stem.starts_with(p))))
    {
        return true;
    }
    if in_dir(".ssh")
        && !name.ends_with(".pub")
        && !["known_hosts", "config"].contains(&name.as_str())
    {
        return true;
    }
    if in_dir(".gnupg") && !name.ends_with(".conf") {
        return true;
    }
    if (in_dir(".docker") && name == "config.json") || (in_dir(".kube") && name == "config") {
        return true;
    }
    // The GitHub CLI's logins (`~/.config/gh/hosts.yml`).
    if in_dir("gh") && name == "hosts.yml" {
        return true;
    }
    // Shell and REPL histories: passwords typed on command lines
    // (`mysql -p…`, `export TOKEN=…`). `.bash_history`, `.zsh_history`,
    // `.psql_history`, `.python_history`, fish's and PowerShell's.
    if name == ".history"
        || (name.starts_with('.') && name.ends_with("_history"))
        || name == ".rhistory"
        || name == "fish_history"
        || name == "consolehost_history.txt"
    {
        return true;
    }
    // Package managers' and agents' logins kept in their home folders:
    // Composer's, the Codex CLI's, opencode's, the Vercel CLI's and the
    // container tools' (podman, buildah, skopeo) `auth.json`, Maven's
    // `settings.xml` and its master password, Gradle's user properties, the
    // hub CLI's tokens, rclone's remotes. An `auth.json` at the top of the
    // tree searched is Composer's project login, beside `composer.json`.
    // (An `auth.json` deeper in a project, often a translation file, and its
    // `gradle.properties` are not.)
    if (name == "auth.json" && is_login_auth_json(&path))
        || (in_dir(".m2") && (name == "settings.xml" || name == "settings-security.xml"))
        || (in_dir(".gradle") && name == "gradle.properties")
        || (in_dir(".config") && name == "hub")
        || name == "rclone.conf"
    {
        return true;
    }
    // More tools' logins in their home folders: GitHub Copilot's OAuth
    // token, the Hugging Face CLI's token, dbt's database profiles, the
    // GitLab CLI's and flyctl's tokens.
    if (in_dir("github-copilot") && (name == "hosts.json" || name == "apps.json"))
        || ((in_dir("huggingface") || in_dir(".huggingface"))
            && (name == "token" || name == "stored_tokens"))
        || (in_dir(".dbt") && name == "profiles.yml")
        || (in_dir("glab-cli") && name == "config.yml")
        || (in_dir(".fly") && name == "config.yml")
    {
        return true;
    }
    // Google's OAuth client secret (`client_secret_….apps.googleusercontent.com.json`)
    // and google-github-actions/auth's credentials (`gha-creds-….json`).
    if ext == "json" && (stem.starts_with("client_secret") || stem.starts_with("gha-creds-")) {
        return true;
    }
    // An OAuth token cache: `token.json` (Google's API quickstarts write
    // the user's refresh token there; `token.pickle` before them),
    // `access_token.json`, `oauth-token.json`. Only a name that is a
    // token's, whole: `tokens.json` (a lexer's fixtures, design tokens),
    // `tokenizer.json` and `special_tokens_map.json` are not.
    if (ext == "json" || ext == "pickle") && TOKEN_STEMS.contains(&stem.replace('-', "_").as_str())
    {
        return true;
    }
    !stem.is_empty() && EXTENSIONS.contains(&ext)
}

/// Whether an `auth.json` (at `path`) is a login: at the top of the tree
/// searched (Composer's project login, beside `composer.json`), or in the
/// folder a tool keeps its login in: Composer's (`~/.composer`,
/// `~/.config/composer`), the Codex CLI's (`~/.codex`), the Vercel CLI's
/// (`~/.vercel`, `…/com.vercel.cli`), opencode's
/// (`~/.local/share/opencode`), and podman's, buildah's and skopeo's
/// registry logins (`~/.config/containers`,
/// `/run/user/<uid>/containers`). A folder name that is also a project's
/// (`composer`, `containers`, `opencode`) counts only where the tool puts
/// it.
fn is_login_auth_json(path: &str) -> bool {
    let path = path.trim_start_matches("./");
    let mut dirs = path.rsplit('/').skip(1);
    let parent = dirs.next();
    let grandparent = dirs.next().unwrap_or("");
    match parent {
        None => true,
        Some(".composer" | ".codex" | ".vercel" | "com.vercel.cli") => true,
        Some("composer") => grandparent == ".config",
        Some("opencode") => grandparent == "share",
        Some("containers") => grandparent == ".config" || path.contains("run/user/"),
        Some(_) => false,
    }
}

/// Names (without their extension; `-` read as `_`) of a file that caches
/// an OAuth token.
const TOKEN_STEMS: [&str; 6] = [
    "token",
    "access_token",
    "refresh_token",
    "oauth_token",
    "oauth2_token",
    "auth_token",
];

/// Extensions of files that hold data (settings, exports), not code.
const DATA_EXTENSIONS: [&str; 12] = [
    "json",
    "yml",
    "yaml",
    "toml",
    "ini",
    "conf",
    "cfg",
    "txt",
    "csv",
    "xml",
    "properties",
    "env",
];

/// A dotenv variant (what follows `.env.`) that is a template: any of its
/// dot-separated parts says so (`example`, `sample.local`).
fn is_template(variant: &str) -> bool {
    const TEMPLATES: [&str; 5] = ["example", "sample", "template", "dist", "defaults"];
    variant.split('.').any(|part| TEMPLATES.contains(&part))
}

/// The last dot-separated part of a name (the whole name without a dot).
fn extension(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// Extensions of source code and documents: `process.env.d.ts` is code.
fn is_code_extension(ext: &str) -> bool {
    const CODE: [&str; 34] = [
        "ts", "tsx", "js", "jsx", "mjs", "cjs", "py", "pyi", "rb", "go", "rs", "java", "kt", "kts",
        "swift", "php", "cs", "c", "h", "cc", "cpp", "hpp", "scala", "sh", "bash", "zsh", "ps1",
        "lua", "dart", "vue", "svelte", "md", "rst", "html",
    ];
    CODE.contains(&ext)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_files_by_nature() {
        for path in [
            ".env",
            "app/.env",
            ".env.local",
            ".env.production",
            ".envrc",
            "app/.envrc",
            "prod.env",
            "certs/server.pem",
            "tls/server.key",
            "home/.ssh/id_rsa",
            "id_ed25519",
            ".netrc",
            ".npmrc",
            ".pypirc",
            "~/.aws/credentials",
            "config/credentials.json",
            "config\\secrets.yml",
            "deploy/terraform.tfvars",
            ".ssh/my_deploy_key",
            ".docker/config.json",
            ".kube/config",
            "keystore.jks",
        ] {
            assert!(is_secret_file(path), "{path}");
        }
        for path in [
            ".env.example",
            ".env.sample",
            "src/env.rs",
            "environment.py",
            "id_rsa.pub",
            ".ssh/known_hosts",
            ".ssh/config",
            "src/key.rs",
            "docs/keys.md",
            "config.json",
            "src/credentials_test.py",
            "Makefile",
            ".key",
        ] {
            assert!(!is_secret_file(path), "{path}");
        }
    }

    #[test]
    fn secret_files_the_probe_found_sent() {
        for path in [
            "terraform.tfstate",
            "infra/prod.tfstate",
            "terraform.tfstate.backup",
            "id_rsa.bak",
            "keys/id_ed25519.old",
            "id_rsa~",
            "prod.env.local",
            ".env.production.local",
            ".env.bak",
            "config.env.json",
            "deploy/staging.env.yaml",
            "aws_credentials",
            "gcp-credentials.json",
            "app_secrets.yml",
            "service-account.json",
            "service_account_prod.json",
            "firebase/serviceAccountKey.json",
            "pgpass.conf",
            "htpasswd",
            ".my.cnf",
            "deploy_key",
            "etc/ssh/ssh_host_ed25519_key",
            "AuthKey_ABC123.p8",
            "client.pfx",
            "store.keystore",
            ".git-credentials",
            "home/.gnupg/private-keys-v1.d/ABC.key",
            "home/.gnupg/pubring.kbx",
        ] {
            assert!(is_secret_file(path), "{path}");
        }
    }

    #[test]
    fn tool_logins_the_s45_probe_found_served() {
        for path in [
            ".config/gh/hosts.yml",
            "kubeconfig",
            "clusters/prod.kubeconfig",
            ".terraformrc",
            ".terraform.d/credentials.tfrc.json",
            ".passwd-s3fs",
            ".vault_pass",
            "ansible/vault_password.txt",
            ".azure/accessTokens.json",
            ".azure/msal_token_cache.json",
            ".config/gcloud/credentials.db",
            ".config/gcloud/access_tokens.db",
            "client_secret_123.apps.googleusercontent.com.json",
            "gha-creds-4f2a.json",
        ] {
            assert!(is_secret_file(path), "{path}");
        }
        for path in [
            "docs/gh/hosts.md",
            "src/kubeconfig.go",
            "src/vault_pass.py",
            "src/client_secret.rs",
            "hosts.yml",
        ] {
            assert!(!is_secret_file(path), "{path}");
        }
    }

    #[test]
    fn histories_and_home_logins_are_secrets_files() {
        for path in [
            ".bash_history",
            "home/me/.zsh_history",
            ".psql_history",
            ".mysql_history",
            ".python_history",
            ".node_repl_history",
            ".history",
            ".local/share/fish/fish_history",
            "PSReadLine/ConsoleHost_history.txt",
            ".composer/auth.json",
            ".config/composer/auth.json",
            ".codex/auth.json",
            ".m2/settings.xml",
            ".m2/settings-security.xml",
            ".gradle/gradle.properties",
            ".config/hub",
            ".config/rclone/rclone.conf",
        ] {
            assert!(is_secret_file(path), "{path}");
        }
        for path in [
            "src/history.rs",
            "docs/history.md",
            "src/shell_history.py",
            "locales/en/auth.json",
            "src/auth.json",
            "settings.xml",
            "gradle.properties",
            "app/gradle.properties",
            "src/hub",
        ] {
            assert!(!is_secret_file(path), "{path}");
        }
    }

    #[test]
    fn token_caches_and_tool_logins_the_s48_brief_named() {
        for path in [
            "token.json",
            "config/token.json",
            "token.pickle",
            "secrets/access_token.json",
            "oauth-token.json",
            "refresh_token.json",
            "auth.json",
            "./auth.json",
            ".codex/auth.json",
            "home/me/.codex/auth.json",
            ".composer/auth.json",
            ".config/composer/auth.json",
            ".vercel/auth.json",
            "Library/Application Support/com.vercel.cli/auth.json",
            ".local/share/opencode/auth.json",
            ".config/containers/auth.json",
            "/run/user/1000/containers/auth.json",
            ".config/github-copilot/hosts.json",
            ".config/github-copilot/apps.json",
            ".cache/huggingface/token",
            ".huggingface/token",
            ".dbt/profiles.yml",
            ".config/glab-cli/config.yml",
            ".fly/config.yml",
            ".kaggle/kaggle.json",
            ".databrickscfg",
            ".gemini/oauth_creds.json",
            // Those the list knew, by the same reasoning.
            "credentials.json",
            "client_secret_123.apps.googleusercontent.com.json",
            "service-account-prod.json",
            ".config/gh/hosts.yml",
        ] {
            assert!(is_secret_file(path), "{path}");
        }
        for path in [
            "tokenizer.py",
            "src/token.rs",
            "src/token.ts",
            "docs/token.md",
            "tokens.json",
            "tests/lexer/tokens.json",
            "design/tokens.json",
            "tokenizer.json",
            "models/bert/tokenizer_config.json",
            "special_tokens_map.json",
            "token_test.json",
            "src/auth.json",
            "locales/en/auth.json",
            "packages/composer/auth.json",
            "src/containers/auth.json",
            "opencode/auth.json",
            "hosts.json",
            "config.yml",
            "profiles.yml",
            "src/huggingface/token.py",
            "kaggle.py",
        ] {
            assert!(!is_secret_file(path), "{path}");
        }
    }

    #[test]
    fn code_and_templates_named_like_secrets_are_not() {
        for path in [
            ".env.example.local",
            "prod.env.example",
            ".env.template",
            "src/process.env.d.ts",
            "config/app.env.js",
            "src/vite-env.d.ts",
            "id_rsa.pub.bak",
            "src/id_rsa.py",
            "src/credentials.py",
            "src/secrets_manager.rs",
            "docs/credentials.md",
            "tests/service_account_test.go",
            "src/primary_key.rs",
            ".gnupg/gpg-agent.conf",
            "src/tfstate.rs",
            "monkey",
        ] {
            assert!(!is_secret_file(path), "{path}");
        }
    }
}
