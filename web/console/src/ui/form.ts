// A form's values as one record: the props that tie a field to one of them
// (value, onChange and the API's message for it), and the submit handler.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { apiErrorOf } from '../api/client';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type Keys<T, V> = { [K in keyof T]: T[K] extends V ? K : never }[keyof T] & string;

/** `error`: the failed write whose fieldErrors the fields show (by their names). */
export function useForm<T extends object>(initial: T | (() => T), error?: unknown) {
  const [form, setForm] = useState(initial);
  const apiError = apiErrorOf(error);
  const set = (change: Partial<T>) => setForm((now) => ({ ...now, ...change }));
  return {
    form,
    set,
    setForm,
    /** a text or choice field of `name` */
    field: (name: Keys<T, string>) => ({
      value: form[name] as string,
      onChange: (e: ChangeEvent<Control>) => set({ [name]: e.target.value } as Partial<T>),
      error: apiError?.forField(name),
    }),
    /** a checkbox of `name` */
    check: (name: Keys<T, boolean>) => ({
      checked: form[name] as boolean,
      onChange: (e: ChangeEvent<HTMLInputElement>) => set({ [name]: e.target.checked } as Partial<T>),
    }),
  };
}

/** A form's submit handler: no page load, then `act`. */
export const onSubmit = (act: () => void) => (e: FormEvent) => {
  e.preventDefault();
  act();
};
