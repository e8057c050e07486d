# Returns a file URL naming a directory of the host's file system, as an item.
from wire import *
host = connect()
body, fds = complete([(None, None, [(None, [("public.url", ITEM, url_result("{URL}"))])])])
send_on(host, message(COMPLETE, body), fds)
stay()
