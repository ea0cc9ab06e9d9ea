// SPDX-License-Identifier: GPL-2.0

//! Rust call sites for the printk message identifier selftest.
//!
//! At load it prints through `pr_*!()`, `pr_cont!()` and `dev_*!()` on a
//! faux device, once each, for tools/testing/selftests/msgid, which checks
//! that every record carries the identifier of its own format string
//! literal and that the printk index lists each call site. Its KUnit suite
//! checks the rule against identifiers computed with zlib.crc32().

use kernel::{bindings, c_str, faux, pr_cont, prelude::*};

module! {
    type: TestMsgidRust,
    name: "test_msgid_rust",
    authors: ["The printk message identifier authors"],
    description: "Rust call sites for the printk message identifier selftest",
    license: "GPL",
    imports_ns: ["EXPORTED_FOR_KUNIT_TESTING"],
}

struct TestMsgidRust {
    _faux: faux::Registration,
}

impl kernel::Module for TestMsgidRust {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        pr_info!("rust pr_info: {} apples\n", 3);
        pr_warn!("rust pr_warn: {:?}\n", "pears");
        pr_info!("rust line starts: {}", 1);
        pr_cont!(" and continues: {}\n", 2);
        pr_err!(
            "[Firmware Info]: rust synthetic test event {} (not a message from the firmware)\n",
            7
        );
        let faux = faux::Registration::new(c_str!("test_msgid_rust"), None)?;
        dev_info!(faux.as_ref(), "rust dev_info on a faux device: {}\n", 4);
        dev_err!(faux.as_ref(), "rust dev_err on a faux device: {:#x}\n", 0x2a);
        Ok(Self { _faux: faux })
    }
}

#[kunit_tests(printk_msgid_rust)]
mod tests {
    use super::bindings;
    use kernel::prelude::*;

    /// A literal and its identifier: zlib.crc32() of the literal without
    /// its trailing newline, the rule of Documentation/admin-guide/msgid.rst.
    const IDS: [(&core::ffi::CStr, u32); 7] = [
        (c"rust pr_info: {} apples\n", 0xbbbdacf3),
        (c"rust pr_warn: {:?}\n", 0xf86d5972),
        (c"rust line starts: {}", 0x342a7425),
        (c" and continues: {}\n", 0xee1a98e4),
        (
            c"[Firmware Info]: rust synthetic test event {} (not a message from the firmware)\n",
            0x47c47c82,
        ),
        (c"rust dev_info on a faux device: {}\n", 0xf56e24c7),
        (c"rust dev_err on a faux device: {:#x}\n", 0xce143efc),
    ];

    #[test]
    fn literal_ids() {
        for (literal, id) in IDS {
            // SAFETY: The literal is null-terminated.
            assert_eq!(unsafe { bindings::printk_msgid_hash(literal.as_char_ptr()) }, id);
        }
    }

    #[test]
    fn one_newline_dropped() {
        // SAFETY: The literals are null-terminated.
        let (with, without, two) = unsafe {
            (
                bindings::printk_msgid_hash(c"rust pr_warn: {:?}\n".as_char_ptr()),
                bindings::printk_msgid_hash(c"rust pr_warn: {:?}".as_char_ptr()),
                bindings::printk_msgid_hash(c"rust pr_warn: {:?}\n\n".as_char_ptr()),
            )
        };
        assert_eq!(with, without);
        assert_ne!(with, two);
    }
}
