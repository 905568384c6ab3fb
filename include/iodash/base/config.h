/* config: the user's defaults, $XDG_CONFIG_HOME/iodash/config (default
 * ~/.config/iodash/config) or --config FILE: `key = value` lines, `#`
 * comments, for the options one sets the same way every time.  Core: it
 * reads and checks the keys; the command line (cli.c) applies the values
 * through the same checks as its options, and its options win. */
#ifndef IODASH_CONFIG_H
#define IODASH_CONFIG_H

#include <stddef.h>

#define CONFIG_MAX_ENTRIES 32
#define CONFIG_VALUE_LEN 1024

struct config_entry {
	const char *key;            /* one of config_keys[] */
	const char *option;         /* the option it stands for, "--interval" */
	char value[CONFIG_VALUE_LEN];
	int line;
};

struct config {
	char path[1024];
	struct config_entry v[CONFIG_MAX_ENTRIES];
	size_t n;
};

/* The user's iodash directory: $XDG_CONFIG_HOME/iodash when
 * XDG_CONFIG_HOME is set and absolute (the XDG rule), else
 * $HOME/.config/iodash; "" when neither gives one.  buf is returned. */
char *config_default_dir(char *buf, size_t len);

/* The default path: $XDG_CONFIG_HOME/iodash/config when XDG_CONFIG_HOME is
 * set and absolute (the XDG rule), else $HOME/.config/iodash/config.
 * "" when neither gives a path.  buf is returned. */
char *config_default_path(char *buf, size_t len);

/* Read path into c.  0; -ENOENT when the file does not exist (err says
 * so); -EINVAL with err "FILE:LINE: why" for a line that is not
 * `key = value` or a key iodash does not know (err lists the keys);
 * another -errno when it cannot be read. */
int config_load(const char *path, struct config *c, char *err, size_t errlen);

/* "interval, refresh, theme, record_dir, throttle_gap" */
const char *config_key_list(void);

#endif
