// System calls the Swift Glibc module does not expose (they need _GNU_SOURCE), behind one small C layer.
#ifndef CSHARING_SYSTEM_H
#define CSHARING_SYSTEM_H

#include <sys/types.h>

/// copy_file_range(2) from the current offsets: at most `length` bytes. -1 with errno ENOSYS where the
/// system has no such call.
ssize_t csharing_copy_file_range(int from, int to, size_t length);

/// sendfile(2) from the current offset of `from`. -1 with errno ENOSYS where unavailable for files.
ssize_t csharing_sendfile(int to, int from, size_t length);

/// Renames without replacing: fails with EEXIST when `to` exists (renameat2 RENAME_NOREPLACE on Linux,
/// renameatx_np RENAME_EXCL on Darwin).
int csharing_rename_noreplace(int from_directory, const char *from, int to_directory, const char *to);

/// Names the calling thread (at most 15 bytes are kept on Linux).
void csharing_set_thread_name(const char *name);

/// The calling thread's name, into `name` of `size` bytes.
void csharing_thread_name(char *name, size_t size);

#endif
