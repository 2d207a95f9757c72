// PLACEHOLDER: the contract is being written.
#ifndef UUCORE_SIGNAL_WAIT_H_
#define UUCORE_SIGNAL_WAIT_H_
#endif  // UUCORE_SIGNAL_WAIT_H_
