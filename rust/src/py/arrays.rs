//! `NumPy` arrays at the boundary: the memory a `VecEnv` writes and hands out, the checks on
//! arrays a caller passes in to be written, and the loading of `NumPy`'s C API.
//!
//! A `VecEnv` writes only memory it allocated itself, whose size never changes. Python
//! gets arrays that view it (their base is the [`VecEnvMemory`] that owns it): `NumPy`
//! refuses to resize an array that does not own its data, and whatever a caller does to
//! such an array (a new dtype, shape or strides, a read-only flag) changes that view only,
//! never what the engine writes or where. Before writing, the env also checks that every
//! array it handed out still shows the memory as it did ([`VecEnvOutputs::check`]), so a
//! caller who changed one in place gets an `EcarteError`, and no env advances.
//!
//! All of this holds while the GIL serialises Python's access to the memory with the
//! engine's: the module declares that it needs the GIL (`gil_used`, see `py/mod.rs`).

use std::ptr::NonNull;

use numpy::ndarray::{ArrayViewD, IxDyn};
use numpy::npyffi::{self, NPY_ARRAY_WRITEABLE};
use numpy::{
    dtype, Element, PyArray1, PyArrayDescr, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;

use super::errors::{describe, EcarteError};
use crate::duel::{COMPACT_OBSERVATION_SIZE, NUM_ACTIONS, OBSERVATION_SIZE};
use crate::play::vecenv::{ObsBuffer, ObsLayout, StepBuffers};

/// Loads `NumPy`'s C API and the borrow checking that rust-numpy shares between extensions,
/// at import. Loaded lazily instead, by the first array call, it runs Python code (`NumPy`'s
/// version check), so a pending signal (Ctrl-C during a long call) made it fail, and
/// rust-numpy panics when it fails: a `PanicException` where a `KeyboardInterrupt` was due.
pub fn load_numpy_api(py: Python<'_>) -> PyResult<()> {
    // The Python part: imports `NumPy` and reads its version. An error here (a pending
    // signal, no `NumPy`) fails the import with that error.
    numpy::get_array_module(py)?;
    // The rest reads the C API's capsule, with nothing left that runs Python code; any
    // failure would still be a panic in rust-numpy, made an `ImportError` here.
    let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let probe = PyArray1::<u8>::zeros(py, 1, false);
        // An array over a Rust `Vec` makes rust-numpy's owner type, which it also panics
        // on failing to make.
        let owned = PyArray1::from_vec(py, vec![0u8]);
        probe.try_readwrite().is_ok() && owned.try_readonly().is_ok()
    }));
    match loaded {
        Ok(true) => Ok(()),
        _ => Err(PyImportError::new_err(
            "ecarte could not load NumPy's C API (see the message above)",
        )),
    }
}

/// Element types of memory that Python may write, so that whatever a caller stores there
/// (through any view) the engine may hold a slice of it.
///
/// # Safety
/// Every bit pattern must be a valid value of the type (not so for `bool`).
pub unsafe trait Plain: Element + Copy + Default + Send + Sync + 'static {}
// SAFETY: every bit pattern is an `f32` (a NaN at worst), a `u8`, an `i64`.
unsafe impl Plain for f32 {}
// SAFETY: as above.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for i64 {}

/// `len` values of `T`, zeroed, at an address that never changes, freed on drop. The
/// allocation is reached only through `start`: `NumPy`'s arrays over it and the engine's
/// slices of it are all made from that pointer, and none of them is used while another
/// writes (see [`VecEnvMemory::step_buffers`]).
pub struct Memory<T: Plain> {
    start: NonNull<T>,
    len: usize,
}

// SAFETY: `Memory` owns plain data, like a `Box<[T]>`; the only access through a shared
// `Memory` that writes is `slice_mut`, whose caller must rule out any other access.
unsafe impl<T: Plain> Send for Memory<T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Plain> Sync for Memory<T> {}

impl<T: Plain> Memory<T> {
    fn zeroed(len: usize) -> Memory<T> {
        let boxed: Box<[T]> = vec![T::default(); len].into_boxed_slice();
        Memory {
            start: NonNull::from(Box::leak(boxed)).cast::<T>(),
            len,
        }
    }

    /// The whole memory as a slice.
    ///
    /// # Safety
    /// Nothing else may read or write the memory while the slice lives: no other slice,
    /// and no `NumPy` array over it (Python code must not run).
    #[allow(clippy::mut_from_ref)]
    unsafe fn slice_mut(&self) -> &mut [T] {
        // SAFETY: `start` points to `len` initialised values of `T`, allocated by `zeroed`
        // and alive until `drop`; exclusivity is the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

impl<T: Plain> Drop for Memory<T> {
    fn drop(&mut self) {
        let whole = std::ptr::slice_from_raw_parts_mut(self.start.as_ptr(), self.len);
        // SAFETY: `start` and `len` are those of the box leaked in `zeroed`, and nothing
        // views the memory any more: every array over it keeps its owner alive.
        drop(unsafe { Box::from_raw(whole) });
    }
}

/// The memory a `VecEnv` writes: the base of every array it hands out, which keeps it
/// alive as long as any of them lives. Python can do nothing with it.
#[pyclass(frozen, name = "VecEnvMemory", module = "ecarte.duel")]
pub struct VecEnvMemory {
    obs: ObsMemory,
    mask: Memory<u8>,
    rewards: Memory<f32>,
    terminated: Memory<u8>,
    players: Memory<i64>,
}

enum ObsMemory {
    Float32(Memory<f32>),
    Compact(Memory<u8>),
}

impl VecEnvMemory {
    /// Slices of the whole memory, for the engine to write.
    ///
    /// # Safety
    /// Only the one env that owns this memory calls it, while it holds the GIL and runs no
    /// Python code, and drops the buffers before it returns to Python: then no `NumPy`
    /// array over the memory is used while they live (every array is used by Python code,
    /// or by native code holding the GIL, such as `observation_tensor(out=)`).
    unsafe fn step_buffers(&self) -> StepBuffers<'_> {
        // SAFETY: the caller's promise, for each allocation in turn.
        unsafe {
            StepBuffers {
                obs: match &self.obs {
                    ObsMemory::Float32(m) => ObsBuffer::Float32(m.slice_mut()),
                    ObsMemory::Compact(m) => ObsBuffer::Compact(m.slice_mut()),
                },
                mask: self.mask.slice_mut(),
                rewards: self.rewards.slice_mut(),
                terminated: self.terminated.slice_mut(),
                players: self.players.slice_mut(),
            }
        }
    }
}

/// An array handed out over part of a [`VecEnvMemory`], and what it was when handed out.
struct OutputArray {
    /// Its name in the docs, for the error message.
    name: &'static str,
    array: Py<PyUntypedArray>,
    dtype: Py<PyArrayDescr>,
    shape: Vec<usize>,
    strides: Vec<isize>,
    /// The address of the memory's start, as the array shows it.
    data: usize,
}

impl OutputArray {
    /// A writeable C-ordered array of shape `shape` over `memory` (whose base is `owner`),
    /// seen as `view_dtype` (the memory's element type if `None`).
    fn new<T: Plain>(
        owner: &Bound<'_, VecEnvMemory>,
        memory: &Memory<T>,
        shape: &[usize],
        view_dtype: Option<Bound<'_, PyArrayDescr>>,
        name: &'static str,
    ) -> PyResult<OutputArray> {
        if shape.iter().product::<usize>() != memory.len {
            return Err(EcarteError::new_err(format!(
                "internal error: an array of shape {shape:?} over {} values",
                memory.len
            )));
        }
        // SAFETY: `memory` holds `product(shape)` values of `T` from `start` (checked just
        // above), aligned and initialised, and lives as long as `owner`, which the array
        // takes as its base; the memory is never moved or resized.
        let inner = unsafe {
            let view = ArrayViewD::from_shape_ptr(IxDyn(shape), memory.start.as_ptr().cast_const());
            PyArrayDyn::<T>::borrow_from_array(&view, owner.clone().into_any())
        };
        // The array handed out is a view of `inner`, so that a caller who made it
        // read-only can make it writeable again: `NumPy` allows that only when its base is
        // a writeable array.
        let array = match view_dtype {
            Some(dtype) => inner.call_method1("view", (dtype,))?,
            None => inner.call_method0("view")?,
        }
        .cast_into::<PyUntypedArray>()?;
        let data = array_fields(&array).0;
        Ok(OutputArray {
            name,
            dtype: array.dtype().unbind(),
            shape: array.shape().to_vec(),
            strides: array.strides().to_vec(),
            data,
            array: array.unbind(),
        })
    }

    /// `Ok` if the array still views the memory as when handed out: the same dtype, shape,
    /// strides and start, and writeable.
    fn check(&self, py: Python<'_>) -> PyResult<()> {
        let array = self.array.bind(py);
        let (data, writeable) = array_fields(array);
        let change = if !array.dtype().is_equiv_to(self.dtype.bind(py)) {
            format!("its dtype is now {}", array.dtype())
        } else if array.shape() != self.shape.as_slice() {
            format!("its shape is now {:?}", array.shape())
        } else if array.strides() != self.strides.as_slice() || data != self.data {
            format!("its strides are now {:?}", array.strides())
        } else if !writeable {
            "it is now read-only".to_string()
        } else {
            return Ok(());
        };
        Err(EcarteError::new_err(format!(
            "the {} array this VecEnv returned was changed in place ({change}); the env \
             writes into it at every reset and step: undo the change (or change a copy), \
             then call again",
            self.name
        )))
    }
}

/// The data address and the writeable flag of `array`.
fn array_fields(array: &Bound<'_, PyUntypedArray>) -> (usize, bool) {
    // SAFETY: `array` is a live `NumPy` array (its type was checked when it was bound), and
    // reading two fields of its struct with the GIL held races with nothing.
    let fields = unsafe { &*npyffi::_PyArray_GET_ITEM_DATA(array.as_array_ptr()) };
    (
        fields.data as usize,
        fields.flags & NPY_ARRAY_WRITEABLE != 0,
    )
}

/// A `VecEnv`'s outputs: its memory and the five arrays over it that `reset` and `step`
/// return, the same arrays every time.
pub struct VecEnvOutputs {
    memory: Py<VecEnvMemory>,
    layout: ObsLayout,
    /// Observations, masks, rewards, terminated flags, current players: `step`'s order.
    arrays: [OutputArray; 5],
}

/// What `VecEnv.step` returns.
pub type StepArrays<'py> = [Bound<'py, PyUntypedArray>; 5];

impl VecEnvOutputs {
    pub fn new(py: Python<'_>, n: usize, layout: ObsLayout) -> PyResult<VecEnvOutputs> {
        let (obs, obs_width) = match layout {
            ObsLayout::Float32 => (
                ObsMemory::Float32(Memory::zeroed(n * OBSERVATION_SIZE)),
                OBSERVATION_SIZE,
            ),
            ObsLayout::Compact => (
                ObsMemory::Compact(Memory::zeroed(n * COMPACT_OBSERVATION_SIZE)),
                COMPACT_OBSERVATION_SIZE,
            ),
        };
        let owner = Bound::new(
            py,
            VecEnvMemory {
                obs,
                mask: Memory::zeroed(n * NUM_ACTIONS),
                rewards: Memory::zeroed(n * 2),
                terminated: Memory::zeroed(n),
                players: Memory::zeroed(n),
            },
        )?;
        let memory = owner.get();
        let flags = || Some(dtype::<bool>(py));
        let obs = match &memory.obs {
            ObsMemory::Float32(m) => {
                OutputArray::new(&owner, m, &[n, obs_width], None, "observations")
            }
            ObsMemory::Compact(m) => {
                OutputArray::new(&owner, m, &[n, obs_width], None, "observations")
            }
        }?;
        let arrays = [
            obs,
            OutputArray::new(&owner, &memory.mask, &[n, NUM_ACTIONS], flags(), "masks")?,
            OutputArray::new(&owner, &memory.rewards, &[n, 2], None, "rewards")?,
            OutputArray::new(&owner, &memory.terminated, &[n], flags(), "terminated")?,
            OutputArray::new(&owner, &memory.players, &[n], None, "current_players")?,
        ];
        Ok(VecEnvOutputs {
            memory: owner.unbind(),
            layout,
            arrays,
        })
    }

    pub fn layout(&self) -> ObsLayout {
        self.layout
    }

    /// `Ok` if every array handed out still views the memory as it did (see
    /// [`OutputArray::check`]); else an `EcarteError` naming the first that does not.
    pub fn check(&self, py: Python<'_>) -> PyResult<()> {
        self.arrays.iter().try_for_each(|a| a.check(py))
    }

    /// The buffers for the engine to write.
    ///
    /// # Safety
    /// As [`VecEnvMemory::step_buffers`]: the caller is the env these outputs belong to, it
    /// holds the GIL and runs no Python code until the buffers are dropped.
    pub unsafe fn buffers(&self) -> StepBuffers<'_> {
        // SAFETY: the caller's promise.
        unsafe { self.memory.get().step_buffers() }
    }

    /// The arrays, in `step`'s order.
    pub fn arrays<'py>(&self, py: Python<'py>) -> StepArrays<'py> {
        self.arrays.each_ref().map(|a| a.array.bind(py).clone())
    }
}

/// `out` as a writeable, contiguous, aligned, native float32 array of `len` entries, or an
/// `EcarteError` that says what is wrong with it.
pub fn float32_out<'py>(
    out: &Bound<'py, PyAny>,
    len: usize,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let refuse = |why: String| {
        EcarteError::new_err(format!(
            "out must be a writeable, contiguous float32 array of {len} entries, got {why}"
        ))
    };
    let array = out
        .cast::<PyUntypedArray>()
        .map_err(|_| refuse(describe(out)))?;
    let dtype = array.dtype();
    if !dtype.is_equiv_to(&numpy::dtype::<f32>(out.py())) {
        return Err(refuse(format!("dtype {dtype}")));
    }
    if array.shape() != [len] {
        return Err(refuse(format!("shape {:?}", array.shape())));
    }
    if !array_fields(array).1 {
        return Err(refuse("a read-only array".to_string()));
    }
    if !array.is_c_contiguous() {
        return Err(refuse(format!("strides {:?}", array.strides())));
    }
    if !array.is_aligned() {
        return Err(refuse("an unaligned array".to_string()));
    }
    Ok(array.cast::<PyArray1<f32>>()?.clone())
}
