#pragma once
// Reading and writing the files every command touches, so that no input can block a command and
// no output can clobber what is not ours: inputs must be regular files or pipes (read with a time
// limit); outputs are written to a fresh temporary file beside the target, flushed to disk, then
// renamed over it. Failures throw IoError (input_error.hpp) with the system's reason.
#include <string>
#include <utility>
#include <vector>

namespace ridgeline {

// Bigger inputs are refused: no ridgeline file comes near this, and reading one would only
// exhaust memory.
inline constexpr long long kMaxInputBytes = 1LL << 30;

// How long a FIFO or pipe input may stay silent before it is given up (one line, exit 2).
inline constexpr int kFifoWaitSeconds = 10;

// Reads a whole regular file, or a pipe or FIFO until its writer closes it (a FIFO that no writer
// opens times out after kFifoWaitSeconds rather than block). A device or directory is refused.
std::string read_text_file(const std::string& path, const std::string& what);

// Replaces `path` atomically: a reader (or a killed run) sees the old file or the new one, never
// half of one. The temporary file gets an unpredictable name and is created exclusively (never
// through a planted link). A target that exists and is not a regular file (a device such as
// /dev/null, a directory, a symbolic link, a FIFO) is refused rather than replaced.
void write_text_atomically(const std::string& path, const std::string& text);

// Several outputs of one command (--out and --json), all or none: every file is written and synced
// under its temporary name first, and only then are they renamed, so a destination that cannot
// be written (a missing folder) leaves none of them written.
void write_texts_atomically(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace ridgeline
