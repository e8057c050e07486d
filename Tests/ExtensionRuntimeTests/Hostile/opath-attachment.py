# A notification service that gives its notification an attachment whose descriptor names {PATH} with
# O_PATH: no bytes granted, only the file named.
from wire import *
host = connect()
index = notification(host)
fd = os.open("{PATH}", os.O_PATH)
deliver(host, index, content(attachments=[("leak", "file:///tmp/leak.jpg", "public.jpeg", True)]), [fd])
stay()
