// The live streams and contexts, by handle, plus the device's default stream. Handles are checked here so that
// a destroyed or made-up stream or context gives a status instead of a crash. A context owns a default stream;
// each thread has a current context (none: the device's default context, whose default stream is the device's
// default stream), and a NULL stream means the current context's default stream.
#pragma once

#include <memory>

#include "acl/acl_base.h"
#include "runtime/stream.h"

namespace aclnn_cpu::rt {

std::shared_ptr<Stream> CreateStream();
// nullptr handle -> the current context's default stream (the device's is created on first use); unknown
// handle, or a current context that was destroyed -> nullptr.
std::shared_ptr<Stream> FindStream(aclrtStream handle);

// Contexts. CreateContext makes the new context current on the calling thread.
aclrtContext CreateContext();
// Removes the context and unbinds it from the calling thread; returns its default stream (nullptr for an
// unknown or default context) so that the caller can drain it outside the registry lock.
std::shared_ptr<Stream> TakeContext(aclrtContext context);
// The device's default context: never destroyed, current wherever no other context is.
aclrtContext DefaultContext();
bool IsLiveContext(aclrtContext context);
void SetCurrentContext(aclrtContext context);
aclrtContext CurrentContext();
// Removes the handle; returns the stream so that the caller can drain it outside the registry lock.
std::shared_ptr<Stream> TakeStream(aclrtStream handle);
// Waits until every stream, the default one included, has run all its work. With consume_failures the
// failures are returned (the first one) and forgotten, as aclrtSynchronizeDevice does.
aclError SynchronizeAllStreams(bool consume_failures);
// Drains and stops the default stream; a later use starts a new one.
void ShutDownDefaultStream();

}  // namespace aclnn_cpu::rt
