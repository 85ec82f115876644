/** Bumped in its major part when an older chartroom could misread the file. */
export const LOCKFILE_VERSION = "1.0";

/** The lockfile's name, next to the config. */
export const LOCKFILE_NAME = "charts.lock.json";
