/* A shared library that only announces that it was loaded: its constructor creates the file that
   $BYOC_TEST_MARKER names. The tests put it into an export in place of a compiled region library,
   to show when an export's native code is loaded and when it is not. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void announce_loading(void) {
  const char* marker = getenv("BYOC_TEST_MARKER");
  if (!marker) return;
  int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd >= 0) close(fd);
}
