# Says its open-file limits, and how many more files it could open before the limit stopped it.
from wire import *
import resource
host = connect()
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
opened = []
try:
    while len(opened) < 5000:
        opened.append(os.open("/dev/null", os.O_RDONLY))
except OSError as error:
    stopped = error.strerror
else:
    stopped = "never"
raised = "raised" 
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard + 1, hard + 1))
except (ValueError, OSError):
    raised = "refused"
cancel_saying(host, "soft %d, hard %d, opened %d more (%s), raising past the hard limit %s" % (soft, hard, len(opened), stopped, raised))
stay()
