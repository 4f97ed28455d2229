package wire

// User-settings JSON field names, as the spec's settings table defines them.
const (
	SettingAutoStartLanguages   = "lsp_auto_start_languages"
	SettingAutoInstallLanguages = "lsp_auto_install_languages"
	SettingServerConfigs        = "lsp_server_configs"
	SettingStatusLocation       = "lsp_status_location"
	// SettingLanguageServers chooses, per language, the servers of the
	// built-in catalog it uses: {"typescript": ["tsgo"]}. A language it
	// does not name uses its default (LanguageInfo.Servers[0]). For now a
	// list holds one id: several servers per file come later.
	SettingLanguageServers = "lsp_language_servers"
)

// Status locations; anything else normalizes to StatusLocationToolbar.
const (
	StatusLocationToolbar   = "toolbar"
	StatusLocationStatusBar = "status_bar"
)
