package wire

// User-settings JSON field names, as the spec's settings table defines them.
const (
	SettingAutoStartLanguages   = "lsp_auto_start_languages"
	SettingAutoInstallLanguages = "lsp_auto_install_languages"
	SettingServerConfigs        = "lsp_server_configs"
	SettingStatusLocation       = "lsp_status_location"
	// SettingLanguageServers chooses, per language, the servers of the
	// built-in catalog it uses, in order: {"typescript": ["tsgo",
	// "eslint"]}; each file of the language is served by all of them. A
	// language it does not name uses its default (LanguageInfo.Servers[0]).
	SettingLanguageServers = "lsp_language_servers"
	// SettingFormatters names, per language, the server that formats its
	// files ({"typescript": "eslint"}); a language it does not name is
	// formatted by the first capable server of its list.
	SettingFormatters = "lsp_formatters"
	// SettingServerFeatures limits, per server id, what the server is used
	// for ({"eslint": ["diagnostics"]}, Feature* values), within its
	// catalog entry's own list.
	SettingServerFeatures = "lsp_server_features"
)

// Status locations; anything else normalizes to StatusLocationToolbar.
const (
	StatusLocationToolbar   = "toolbar"
	StatusLocationStatusBar = "status_bar"
)
